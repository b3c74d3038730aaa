#!/usr/bin/env node
'use strict';
require('../dist/agent.cjs');
