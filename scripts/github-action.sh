#!/usr/bin/env bash
# The work of the composite GitHub Action (action.yml): plan each stack file, write one SARIF per stack and, on a
# pull request, a Markdown comment with each plan's findings and (where `gkecap diff` is available) what the
# change does to each team. Never fails by itself: the exit code it would have is the `exit-code` output, so
# the SARIF upload and the comment still happen; the Action's last step fails the job on it.
#
# Inputs (environment): GKECAP_STACKS (stack files, separated by spaces or newlines), GKECAP_POLICY_CONFIG
# (optional), GKECAP_OUT (a directory), GKECAP_BASE_REF (the pull request's base commit; empty outside PRs),
# GITHUB_OUTPUT (GitHub's step-output file). Run it locally with the same variables to see what CI does.
set -uo pipefail

out=${GKECAP_OUT:?GKECAP_OUT is required}
mkdir -p "$out/sarif"
comment="$out/comment.md"
: > "$comment"
worst=0
policy_args=()
[ -n "${GKECAP_POLICY_CONFIG:-}" ] && policy_args=(--policy-config "$GKECAP_POLICY_CONFIG")
has_diff=0
gkecap diff --help >/dev/null 2>&1 && has_diff=1

echo "## gke-capacity plan" >> "$comment"
for file in ${GKECAP_STACKS:?GKECAP_STACKS is required}; do
  findings=$(gkecap check-stacks "$file" --sarif-dir "$out/sarif" "${policy_args[@]}" 2>/dev/null)
  code=$?
  [ "$code" -gt "$worst" ] && worst=$code
  case "$code" in 0) status="passes" ;; 1) status="mandatory violations" ;; *) status="invalid input" ;; esac
  {
    echo
    echo "### \`$file\`: $status"
    echo
    [ -n "$findings" ] && printf '%s\n' "$findings" | sed 's/^/- /'
  } >> "$comment"
  if [ "$has_diff" = 1 ] && [ -n "${GKECAP_BASE_REF:-}" ] && git cat-file -e "$GKECAP_BASE_REF:$file" 2>/dev/null; then
    echo >> "$comment"
    gkecap diff --base "git:$GKECAP_BASE_REF:$file" --head "$file" --format markdown >> "$comment" 2>/dev/null || true
  fi
done

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "exit-code=$worst"
    echo "sarif-dir=$out/sarif"
    echo "comment-file=$comment"
  } >> "$GITHUB_OUTPUT"
fi
echo "gkecap: worst exit code $worst" >&2
exit 0
