const { Script } = require('node:vm');
const JestRuntime = require('jest-runtime').default;

/**
 * jest's runtime, compiling modules so that V8 can reuse its work across the test files of a worker.
 *
 * Every test file loads the app into a fresh module registry, so each of a worker's files compiles
 * the same ~1,500 modules again. jest compiles each with `vm.compileFunction` and an
 * `importModuleDynamically` callback, and V8's in-process compilation cache serves neither (the
 * callback makes every script unique). A `vm.Script` without the callback is served from that cache
 * from a worker's second file on: the module still runs afresh in each file's context; only parsing
 * and compiling are shared. Sources that contain `import(` keep jest's own path, which handles it.
 */
class Runtime extends JestRuntime {
  constructor(...args) {
    super(...args);
    const executor = this.executor;
    if (typeof executor?.compile !== 'function') {
      // jest's internals moved (an upgrade): its own compile still works, only slower.
      process.emitWarning('test/helpers/jest-runtime.js: jest-runtime has no executor.compile; modules are compiled per file');
      return;
    }
    const compile = executor.compile.bind(executor);
    executor.compile = (source, filename) => {
      const context = executor.environment.getVmContext();
      if (context == null || source.includes('import(') || executor.resolution.isCoreModule(filename)) return compile(source, filename);
      const wrapper = `(function (${executor.injectedModuleParameters.join(', ')}) {\n${source}\n})`;
      // lineOffset -1: the wrapper's first line keeps stack traces' line numbers those of the source.
      return new Script(wrapper, { filename, lineOffset: -1 }).runInContext(context);
    };
  }
}

module.exports = Runtime;
