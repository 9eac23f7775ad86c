# bash completion for deeptune: the commands, then each command's options (from its --help).
_deeptune() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "rewrite coarsen tokenize vocab train pretrain evaluate predict devices measure
      validate upgrade-model help --help --version" -- "$cur"))
  elif [ "$COMP_CWORD" -eq 2 ] && [ "${COMP_WORDS[1]}" = help ]; then
    COMPREPLY=($(compgen -W "rewrite coarsen tokenize vocab train pretrain evaluate predict devices measure
      validate upgrade-model" -- "$cur"))
  elif [[ $cur == -* ]]; then
    local options
    options=$("${COMP_WORDS[0]}" "${COMP_WORDS[1]}" --help 2>/dev/null |
      grep -oE -- '--[a-z][a-z-]*' | sort -u)
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _deeptune deeptune
