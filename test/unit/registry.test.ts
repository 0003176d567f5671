import * as assert from 'node:assert/strict';
import { findTool, isToolName, TOOL_NAMES, TOOLS } from '../../src/tools/registry';

describe('tool registry', () => {
  it('lists every tool once, in the table order, each filed under its own name', () => {
    assert.deepEqual(
      TOOLS.map((t) => t.name),
      [...TOOL_NAMES],
    );
    for (const name of TOOL_NAMES) {
      assert.equal(findTool(name)?.name, name);
    }
  });

  it('finds no tool for another name, an object key included', () => {
    for (const name of ['fs_reed', 'constructor', 'toString', '__proto__', '']) {
      assert.equal(findTool(name), undefined, name);
      assert.equal(isToolName(name), false, name);
    }
  });
});
