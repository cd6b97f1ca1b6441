/** The zod schemas of a Python environment as tools.json writes it: an entry's `python` key and `requirements`. */
import { z } from "zod";

/** `requirements` as tools.json writes it, on an entry or project-wide. */
export const requirementsSchema = z
  .union([z.array(z.string()), z.string().min(1)])
  .describe('The packages this environment holds: a list of requirement specifiers (["tabulate==0.9.0"]), or a requirements.txt or pyproject.toml under tools/ ("requirements.txt"). toolexec builds one virtual environment per distinct set (uv when on PATH, else venv + pip), cached across projects.');

/** An entry's `python` key. */
export const entryPythonSchema = z
  .strictObject({ requirements: requirementsSchema })
  .describe("The Python environment this tool's worker or script runs in; replaces the project's python.requirements for it.");

