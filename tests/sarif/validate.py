#!/usr/bin/env python3
"""Validate SARIF logs against the SARIF 2.1.0 JSON schema (make check).

The schema, sarif-schema-2.1.0.json beside this file, is the one Microsoft's
SARIF multitool ships (npm @microsoft/sarif-multitool-linux 5.7.0,
package/sarif-2.1.0.json, MIT; sha256 1c49a0f2...798c), a JSON Schema draft
2020-12 document; the validator is Debian's python3-jsonschema. Prints one
line per error (the file, the JSON path, the message) and exits 1 if any.
"""
import json
import os
import sys

import jsonschema

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sarif-schema-2.1.0.json")


def main(paths):
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    bad = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                log = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: not JSON: {e}")
            bad += 1
            continue
        for err in sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(p) for p in err.absolute_path)
            print(f"{path}: /{where}: {err.message}")
            bad += 1
    if not bad:
        print(f"{len(paths)} valid")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
