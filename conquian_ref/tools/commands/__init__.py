"""The command-line set-up of the commands whose code has another job (conquian_ref.cli lists them).

One module a command, each with `configure(parser)`: it adds the command's options to its
sub-parser and returns the runner (parsed arguments -> exit status). The code a runner calls
is imported only when it runs, so that building the parser (`conquian-ref --help`) stays fast.
The commands whose module sets up its own options (book, fuzz, mutants, new, fmt) are not here.
"""
