/**
 * Turns argv into a command, its flag values and its positional arguments. `node:util` parseArgs
 * reads the tokens; this layer knows which flags each command takes, so a mistake gets one line
 * that names the command, suggests the nearest flag or command, and points at that command's help.
 */
import { parseArgs } from "node:util";
import { COMMAND_GROUPS, COMMANDS, FLAGS, flagsOf, type CommandSpec, type FlagName } from "./command-specs.js";
import { suggestSimilar } from "./suggest-similar.js";
import { UsageError } from "./usage-error.js";

export type FlagValues = { [Name in FlagName]?: (typeof FLAGS)[Name] extends { multiple: true } ? string[] : (typeof FLAGS)[Name]["type"] extends "string" ? string : boolean };

export type CommandLine =
  | { kind: "version" }
  /** `command` undefined: the global help; a group name (`"tools"`): that group's commands. */
  | { kind: "help"; command?: CommandSpec; group?: string; missingCommand?: true }
  | { kind: "run"; command: CommandSpec; values: FlagValues; positionals: string[] };

const parserOptions = Object.fromEntries(
  Object.entries(FLAGS).map(([name, flag]) => [name, name === "help" ? { type: flag.type, short: "h" } : { type: flag.type, ...("multiple" in flag ? { multiple: true } : {}) }]),
) as Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }>;

const commandNames = COMMANDS.map((command) => command.name);
const didYouMean = (suggestion: string | undefined) => (suggestion === undefined ? "" : `; did you mean ${suggestion}?`);

/** The command the positionals name, and the positionals after its name. */
function findCommand(words: string[]): { command: CommandSpec; rest: string[] } | { group: string } | undefined {
  for (const command of COMMANDS) {
    const name = command.name.split(" ");
    if (name.every((word, index) => words[index] === word)) return { command, rest: words.slice(name.length) };
  }
  if (words.length === 1 && (COMMAND_GROUPS as readonly string[]).includes(words[0]!)) return { group: words[0]! };
  return undefined;
}

function unknownCommand(words: string[]): UsageError {
  const [first = "", second] = words;
  if ((COMMAND_GROUPS as readonly string[]).includes(first)) {
    const subcommands = commandNames.filter((name) => name.startsWith(`${first} `));
    const suggestion = suggestSimilar(`${first} ${second}`, subcommands);
    return new UsageError(`Unknown command "${first} ${second}"${didYouMean(suggestion && `"${suggestion}"`)} (commands: ${subcommands.join(", ")})`, first);
  }
  const suggestion = suggestSimilar(words.slice(0, 2).join(" "), commandNames) ?? suggestSimilar(first, [...commandNames, ...COMMAND_GROUPS]);
  return new UsageError(`Unknown command "${first}"${suggestion === undefined ? ` (commands: ${commandNames.join(", ")})` : didYouMean(`"${suggestion}"`)}`);
}

/**
 * Read `argv` (without node and the script). Throws `UsageError` for an unknown command or flag, a
 * flag another command owns, a missing value, or a wrong number of positional arguments.
 *
 * @example
 * parseCommandLine(["tools", "call", "add", "--args", "{}"]); // { kind: "run", command: <tools call>, values: { args: "{}" }, positionals: ["add"] }
 */
export function parseCommandLine(argv: string[]): CommandLine {
  const { values, positionals, tokens } = parseArgs({ args: argv, options: parserOptions, strict: false, allowPositionals: true, tokens: true });
  const found = findCommand(positionals);
  const commandName = found && "command" in found ? found.command.name : undefined;
  // Flags first: `--arg x` swallows nothing, so a typo there must not read as an unknown command.
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const flag = FLAGS[token.name as FlagName] as (typeof FLAGS)[FlagName] | undefined;
    if (flag === undefined) {
      const accepted = found && "command" in found ? flagsOf(found.command) : (Object.keys(FLAGS) as FlagName[]);
      const suggestion = suggestSimilar(token.rawName, accepted.map((name) => `--${name}`));
      throw new UsageError(`Unknown flag ${token.rawName}${didYouMean(suggestion)}`, commandName);
    }
    if (flag.type === "string" && token.value === undefined) throw new UsageError(`${token.rawName} needs a value: ${token.rawName} ${"value" in flag ? flag.value : ""}`.trimEnd(), commandName);
    if (flag.type === "boolean" && token.value !== undefined) throw new UsageError(`${token.rawName} takes no value, got "${token.value}"`, commandName);
  }
  if (values.version === true && positionals.length === 0) return { kind: "version" };
  if (found !== undefined && "group" in found) return { kind: "help", group: found.group, ...(values.help === true ? {} : { missingCommand: true as const }) };
  if (positionals.length === 0) {
    return values.help === true ? { kind: "help" } : { kind: "help", missingCommand: true };
  }
  if (found === undefined) {
    if (positionals[0] === "help") return helpFor(positionals.slice(1));
    throw unknownCommand(positionals);
  }
  const { command, rest } = found;
  if (values.help === true) return { kind: "help", command };
  const foreign = (Object.keys(values) as FlagName[]).filter((name) => !flagsOf(command).includes(name));
  if (foreign.length > 0) {
    const owners = COMMANDS.filter((other) => flagsOf(other).includes(foreign[0]!)).map((other) => other.name);
    throw new UsageError(`--${foreign[0]} is not a flag of "${command.name}"${owners.length > 0 ? ` (it belongs to ${owners.map((owner) => `"${owner}"`).join(", ")})` : ""}`, command.name);
  }
  if (rest.length < command.positionals.length) throw new UsageError(`Missing ${command.positionals[rest.length]}: toolexec ${command.name} ${command.positionals.join(" ")}`, command.name);
  if (rest.length > command.positionals.length) throw new UsageError(`Unexpected argument "${rest[command.positionals.length]}" after "${[command.name, ...rest.slice(0, command.positionals.length)].join(" ")}"`, command.name);
  return { kind: "run", command, values: values as FlagValues, positionals: rest };
}

/** `toolexec help tools call`: the same as `toolexec tools call --help`. */
function helpFor(words: string[]): CommandLine {
  if (words.length === 0) return { kind: "help" };
  const found = findCommand(words);
  if (found === undefined) throw unknownCommand(words);
  return "group" in found ? { kind: "help", group: found.group } : { kind: "help", command: found.command };
}
