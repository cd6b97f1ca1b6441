/** Help text: the global usage (commands and exit codes) and each command's usage, flags and examples. */
import { COMMANDS, FLAGS, PROJECT_FLAGS, flagsOf, type CommandSpec, type FlagName } from "./command-specs.js";

const EXIT_CODES = "Exit codes: 0 success, 1 the call failed or the config is invalid, 2 usage error, 130 interrupted.";

function flagLabel(name: FlagName, command?: CommandSpec): string {
  const flag = FLAGS[name];
  const value = command?.flagValues?.[name] ?? ("value" in flag ? flag.value : undefined);
  return `${name === "help" ? "-h, " : ""}--${name}${value === undefined ? "" : ` ${value}`}`;
}

/** Rows of `label  text`, labels padded to one column. */
function table(rows: Array<[string, string]>): string[] {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, text]) => `  ${label.padEnd(width)}  ${text}`);
}

function usageLine(command: CommandSpec): string {
  return ["toolexec", command.name, ...command.positionals, "[options]"].join(" ");
}

/** The global help: every command with its summary, then the global flags. */
export function formatGlobalHelp(): string {
  return [
    "Usage: toolexec <command> [options]",
    "",
    "Commands:",
    ...table(COMMANDS.map((command) => [[command.name, ...command.positionals].join(" "), command.summary])),
    "",
    "Options:",
    ...table([
      [flagLabel("help"), "Show help; toolexec <command> --help shows a command's flags and examples"],
      [flagLabel("version"), FLAGS.version.description],
    ]),
    "",
    "Project files: <root>/tools.json and <root>/mcp.json are used when they exist; a file named with",
    "--tools-config or --mcp-config must exist. Paths on the command line are relative to the current folder.",
    EXIT_CODES,
  ].join("\n");
}

/** One command's help: usage line, summary, its flags, the project flags, examples. */
export function formatCommandHelp(command: CommandSpec): string {
  const own = flagsOf(command).filter((name) => !command.project || !(PROJECT_FLAGS as readonly FlagName[]).includes(name));
  const lines = [`Usage: ${usageLine(command)}`, "", command.summary, "", "Options:", ...table(own.map((name) => [flagLabel(name, command), command.flagDescriptions?.[name] ?? FLAGS[name].description]))];
  if (command.project) {
    lines.push(
      "",
      "Project options (a missing <root>/tools.json or <root>/mcp.json is skipped; a file named here must exist):",
      ...table(PROJECT_FLAGS.map((name) => [flagLabel(name), FLAGS[name].description])),
    );
  }
  lines.push("", "Examples:", ...command.examples.map((example) => `  ${example}`));
  return lines.join("\n");
}

/** `toolexec tools --help`: the group's commands. */
export function formatGroupHelp(group: string): string {
  const commands = COMMANDS.filter((command) => command.name.startsWith(`${group} `));
  return [
    `Usage: toolexec ${group} <command> [options]`,
    "",
    "Commands:",
    ...table(commands.map((command) => [[command.name, ...command.positionals].join(" "), command.summary])),
    "",
    `Run toolexec ${group} <command> --help for a command's flags and examples.`,
  ].join("\n");
}
