#!/usr/bin/env bash
# File statistics: bytes, lines, words and modification time of a file inside the project.
# toolexec exports top-level arguments as TOOLEXEC_ARG_<NAME>, so no JSON parser is needed here.
set -euo pipefail

root=$(realpath "${TOOLEXEC_ROOT:-$PWD}")
target=$(realpath -m -- "$root/${TOOLEXEC_ARG_PATH:?path is required}")
case "$target" in
  "$root"/*) ;;
  *) echo "path must stay inside the project: $TOOLEXEC_ARG_PATH" >&2; exit 2 ;;
esac
[ -f "$target" ] || { echo "no such file: $TOOLEXEC_ARG_PATH" >&2; exit 2; }

read -r lines words bytes < <(wc -lwc < "$target")
modified=$(date -u -r "$target" +%Y-%m-%dT%H:%M:%SZ)
json_path=${TOOLEXEC_ARG_PATH//\\/\\\\}
json_path=${json_path//\"/\\\"}
printf '{"path":"%s","bytes":%d,"lines":%d,"words":%d,"modified":"%s"}\n' "$json_path" "$bytes" "$lines" "$words" "$modified"
