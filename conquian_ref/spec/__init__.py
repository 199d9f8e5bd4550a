"""The spec floor: what the rules and the conformance suite are written in, read from files.

Above the engine (which it hands profile data to) and below conformance. Its modules:

- `profiles`: the shipped profiles, discovered from `profiles/*.yaml` (PROFILE_IDS), and loading one;
- `ids`: the grammar of rule ids, rule prefixes, profile ids and scenario ids, written once;
- `rulebook`: the numbered rules, read from the rules documents (docs/rules/*.md);
- `schemas`: the JSON Schemas of schema/*.json, loaded by name; `schema_check`: the compiled
  check that spares jsonschema the values it finds valid;
- `scenario`: scenario files, their loading and the checks of `conquian-ref lint` that need no
  replay; `setup_check`: a scenario's setup checked against its profile's deck; `table_check`:
  its seats and misdeal counts against the profile's table and deck; `corpus_walk`: the scenario
  files under a folder, never leaving it; `problem`: one problem at a file, line and field;
- `known`: known-failures files; `yamlfile`: safe YAML loading with the line of every field, on
  `regularfile` (a regular file's text, bounded) and `yamlcore` (the YAML 1.2 core schema);
- `shipped`: where the schemas, the corpus and the rules documents are, installed or in a checkout;
- `corpus_cache`: the loaded and checked scenario files of a corpus folder, kept between runs in
  the user's cache folder, keyed on every file's bytes, the version, the schemas and the checks.
"""
