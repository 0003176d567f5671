import * as assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, guardedList, strictestPolicy, userOnlyList } from '../../src/services/settings';

// What asks the person first is the person's to loosen: a workspace's own settings (a
// repository's .vscode/settings.json) may add to it, never take from it.
describe('settings a workspace cannot loosen', () => {
  it('a guarded list: the built-in patterns, the user\'s additions and exemptions, the workspace\'s patterns, never its exemptions', () => {
    const builtIn = ['**/.env', '!**/.env.example'];
    assert.deepEqual(guardedList(undefined, builtIn, []), builtIn);
    assert.deepEqual(guardedList([], builtIn, [[], undefined]), builtIn, 'an empty list removes nothing');
    assert.deepEqual(guardedList(undefined, builtIn, [['!**/.env', ' !**', '**/*.private', 42, '**/.env']]), [...builtIn, '**/*.private']);
    assert.deepEqual(guardedList(['**/*.key', '!**/.env.local', '**/.env'], builtIn, [['**/*.pem']]), [...builtIn, '**/*.key', '!**/.env.local', '**/*.pem'], 'the user\'s own patterns add to the built-in ones, and their exemptions count');
    assert.deepEqual(guardedList([], builtIn, [['**/*.pem'], ['**/*.crt']]), [...builtIn, '**/*.pem', '**/*.crt'], 'workspace and folder both add');
    assert.deepEqual(guardedList('**/*.key', builtIn, ['**/*.pem']), builtIn, 'what is not a list is not taken');
  });

  it('paths outside the workspace read without asking only where the user\'s own settings say', () => {
    assert.deepEqual(userOnlyList(undefined), []);
    assert.deepEqual(userOnlyList(['/usr/include/**', 7]), ['/usr/include/**']);
    assert.deepEqual(userOnlyList('/**'), []);
  });

  it('the approval policy: the user\'s, or a workspace\'s that waits more often', () => {
    assert.equal(strictestPolicy(undefined, []), DEFAULT_SETTINGS.approvalPolicy);
    assert.equal(strictestPolicy(undefined, ['never', 'sensitiveOnly']), 'always', 'the default waits for every change');
    assert.equal(strictestPolicy('never', [undefined, 'sensitiveOnly']), 'sensitiveOnly');
    assert.equal(strictestPolicy('never', ['always', 'never']), 'always');
    assert.equal(strictestPolicy('sensitiveOnly', ['never']), 'sensitiveOnly');
    assert.equal(strictestPolicy('bogus', ['nope']), 'always', 'values that are not a policy are not taken');
  });
});
