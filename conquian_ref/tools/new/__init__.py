"""`conquian-ref new`: an idea turned into a draft scenario file in one command.

docs/authoring.md walks the whole path (new -> edit -> record -> lint -> fmt -> pre-commit):

    conquian-ref new --profile P --area opening --rules C-SET-1,C-TURN-5 \\
        --title "The non-dealer sets the opening card with two fours" \\
        --hand1 "4O 4E" --stock-top 4C

One module a job:

* command.py: the options, asking for those left out (on a terminal only), checking the values,
  writing the file scenarios/<profile>/<area>/<id>-<slug>.yaml;
* ids.py: the next free scenario id of a profile, and the file name;
* harmless.py: completing the hands with cards that change nothing;
* draft.py: the text of the draft (the fields, a TODO annotation, a first check to record and
  commented examples).
"""

from .command import configure

__all__ = ["configure"]
