// Runs a TypeScript entry point (argv[2]) in its own Node process, compiled on require with the
// project's .swcrc, as jest compiles tests: a second service process without a build.
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const options = JSON.parse(fs.readFileSync(path.join(__dirname, '../../.swcrc'), 'utf8'));
delete options.$schema;
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...options, filename, swcrc: false, configFile: false });
  module._compile(code, filename);
};
require(path.resolve(process.argv[2]));
