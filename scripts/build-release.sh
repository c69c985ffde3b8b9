#!/usr/bin/env bash
# The deployable `strata`: a release build with the Swift runtime linked in (the machine that runs it needs
# no Swift toolchain), into .build-static/release/strata. Extra arguments go to `swift build`.
#
# -disable-concrete-type-metadata-mangled-name-accessors: by default the compiler asks the runtime for a
# concrete generic type's metadata (Dictionary<String, Column>, Option<String?>, …) by its mangled name, and
# the runtime then finds each of the type's conformances (String: Hashable) by scanning every conformance
# record in the binary, about 9,900 of them, once per type. With the flag the compiler passes those witness
# tables directly. Measured on the add-column migrate of Benchmarks/small_command.py: 91.4 → 70.7 M
# instructions (callgrind), 30.5–31.9 → 25.0–27.3 ms a run, `strata --version` 20.6 → 17.8 M (Docs/performance.md,
# "Where a small command's time goes"). It is a command-line flag, not a setting in Package.swift, because
# a package with unsafe flags cannot be a versioned dependency of an application; a plain
# `swift build -c release` gives the same behaviour, a few milliseconds slower to start.
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift build -c release --product strata --static-swift-stdlib --scratch-path .build-static \
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors "$@"
