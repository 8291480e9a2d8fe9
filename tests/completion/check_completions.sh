#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: check_completions.sh FASTWC COMPLETIONS_DIR
#
# Every option that `FASTWC --help` lists (under the default GNU version
# and under the latest, which has --total) must be offered by the bash and
# the zsh completion, so that a new option cannot be forgotten there. The
# bash completion is run through bash-completion when that is installed:
# "fastwc -" offers every option, "--files0-from=" and an operand offer
# file names, "--total=" and "--io=" their arguments. The zsh completion is
# checked for syntax when zsh is installed, and for the options in any case.
set -euo pipefail

fastwc=$1
completions=$(cd "$2" && pwd)  # absolute: the bash checks run elsewhere
bash_completion=/usr/share/bash-completion/bash_completion
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# "  -c, --bytes            print the byte counts" -> -c --bytes;
# "      --files0-from=F    read input ..." -> --files0-from=
mapfile -t options < <(
  { "$fastwc" --help; FASTWC_COMPAT=9.10 "$fastwc" --help; } |
    grep -E '^ +-' | sed -E 's/^ +//; s/  .*//; s/, / /g' | tr ' ' '\n' |
    sed -E 's/=.*/=/' | grep -E '^-' | sort -u
)
((${#options[@]} >= 15)) || fail "only ${#options[@]} options found in --help: ${options[*]}"
echo "options in --help: ${options[*]}"

# --- bash --------------------------------------------------------------------
bash_file=$completions/fastwc.bash
for option in "${options[@]}"; do
  grep -qE -- "(^|[ '])${option}( |'|\$)" "$bash_file" || fail "bash completion lacks $option"
done

if [[ -r $bash_completion ]]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  touch "$work/names.list" "$work/notes.txt"
  # complete WORD... : the completions bash would offer for the last word.
  complete_words() {
    (
      cd "$work"
      # shellcheck disable=SC1090
      source "$bash_completion"
      # shellcheck disable=SC1090
      source "$bash_file"
      COMP_WORDS=(fastwc "$@")
      COMP_CWORD=$#
      # The line as typed: no blanks around a '='.
      COMP_LINE=fastwc
      local word previous=
      for word in "$@"; do
        if [[ $word == = || $previous == = ]]; then COMP_LINE+=$word; else COMP_LINE+=" $word"; fi
        previous=$word
      done
      COMP_POINT=${#COMP_LINE}
      COMPREPLY=()
      _fastwc fastwc "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
      printf '%s\n' "${COMPREPLY[@]}"
    )
  }
  offered=$(complete_words -)
  for option in "${options[@]}"; do
    grep -qxF -- "$option" <<<"$offered" || fail "bash: 'fastwc -<TAB>' does not offer $option"
  done
  # bash splits "--files0-from=na" at the '=' (COMP_WORDBREAKS).
  [[ $(complete_words --files0-from = na) == names.list ]] ||
    fail "bash: --files0-from=na<TAB> does not offer names.list"
  [[ $(complete_words -l no) == notes.txt ]] || fail "bash: an operand does not complete to a file name"
  [[ $(complete_words --total = al) == always ]] || fail "bash: --total=al<TAB> does not offer always"
  [[ $(complete_words --io = u) == uring ]] || fail "bash: --io=u<TAB> does not offer uring"
  [[ $(complete_words -- -) == '' ]] || fail "bash: after --, options are offered"
else
  echo "bash-completion is not installed: bash completion checked by its text only"
fi

# --- zsh ---------------------------------------------------------------------
zsh_file=$completions/_fastwc
for option in "${options[@]}"; do
  case $option in
    --*=) pattern="[')]${option}\\[" ;;
    --*) pattern="(,${option}\\}|[')]${option}\\[)" ;;
    -*) pattern="\\{${option}," ;;
  esac
  grep -qE -- "$pattern" "$zsh_file" || fail "zsh completion lacks $option"
done
if command -v zsh >/dev/null; then
  zsh -n "$zsh_file" || fail "zsh: syntax error in $zsh_file"
else
  echo "zsh is not installed: zsh completion checked by its text only"
fi

((failures == 0)) || exit 1
echo "both completions offer every option of --help"
