#!/usr/bin/env node
require('../dist/cli/quota-state.js');
