#!/usr/bin/env node
require('../dist/quota-api/main.js');
