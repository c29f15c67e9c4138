"""The check's rules, one module each: named paths, runs (make targets, scripts), the shell
commands they read, links between memory files, and facts two files disagree on."""
