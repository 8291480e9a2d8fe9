# bash completion for fastwc                               -*- shell-script -*-
# SPDX-License-Identifier: GPL-3.0-or-later
#
# GNU wc's options and fastwc's own (keep them in step with fastwc --help:
# tests/completion/check_completions.sh compares the two), file names as
# operands, and a file name after --files0-from.

_fastwc()
{
    local cur prev words cword split
    _init_completion -s || return

    case $prev in
        --files0-from)
            _filedir
            return
            ;;
        --total)
            COMPREPLY=($(compgen -W 'auto always only never' -- "$cur"))
            return
            ;;
        --io)
            COMPREPLY=($(compgen -W 'auto uring read pread' -- "$cur"))
            return
            ;;
        --jobs | --read-size)
            return
            ;;
    esac

    $split && return

    # After "--", every word is a file name.
    local i
    for ((i = 1; i < cword; i++)); do
        if [[ ${words[i]} == -- ]]; then
            _filedir
            return
        fi
    done

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '-c -m -l -L -w --bytes --chars --lines
            --files0-from= --max-line-length --words --total= --debug --help
            --version --jobs= --io= --read-size= --stats --progress' -- "$cur"))
        [[ ${COMPREPLY-} == *= ]] && compopt -o nospace
        return
    fi

    _filedir
} &&
    complete -F _fastwc fastwc

# ex: filetype=sh
