#!/usr/bin/env bash
# Validates one or more skill folders with ContextKit's strict mode and, when it
# is installed, with the reference validator from the skills-ref package.
# Usage: check-skill.sh SKILL_FOLDER...
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 SKILL_FOLDER..." >&2
  exit 2
fi

status=0
for folder in "$@"; do
  if [ ! -f "$folder/SKILL.md" ]; then
    echo "$folder: error: no SKILL.md in this folder" >&2
    status=1
    continue
  fi
  if command -v contextkit >/dev/null 2>&1; then
    contextkit skills validate --strict "$folder" || status=1
  else
    echo "note: contextkit is not on PATH; skipping ContextKit's strict validation" >&2
  fi
  if command -v agentskills >/dev/null 2>&1; then
    agentskills validate "$folder" || status=1
  elif command -v skills-ref >/dev/null 2>&1; then
    skills-ref validate "$folder" || status=1
  else
    echo "note: the skills-ref validator is not installed (pip install skills-ref)" >&2
  fi
done
exit "$status"
