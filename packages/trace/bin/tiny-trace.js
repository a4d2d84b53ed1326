#!/usr/bin/env node
// The `tiny-trace` command. Committed (not built), so package managers can link the bin on a fresh
// clone before the first build; the CLI itself is dist/cli.js.
import '../dist/cli.js';
