"""conquian-ref: the executable specification of the card game Conquian.

The reference engine is split into small modules, each implementing a few numbered rules
(see docs/rules/): `cards` (deck and notation), `profile` (rule profiles as data), `melds`
(sets, runs and the arrangement solver), `actions` (the action vocabulary), `game` (the state
machine of one deal), `observation` (what one seat may know), `match` (scoring across deals).
"""

__version__ = "0.1.0"
