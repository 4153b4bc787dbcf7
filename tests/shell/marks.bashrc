# bash with OSC 133 shell integration, as docs/agents.md ("Shell marks") shows it (tests/it/shell_marks.rs
# records it live): `D;STATUS` (the last command's end) and `A` before the prompt, `B` after
# it, `C` when a command starts (PS0, bash 4.4 and later). A bare `D` after an empty line
# closes no command: tuicast counts only a `D` after a `C`. (PS0 takes no `\[ \]`: bash prints
# them there.)
PS1='\[\e]133;A\a\]$ \[\e]133;B\a\]'
PS0='\e]133;C\a'
PROMPT_COMMAND='printf "\e]133;D;%s\a" "$?"'
HISTFILE=/dev/null
