import { describe, expect, it } from 'vitest';
import { checkRules, pathLabel, SAMPLE } from './json-rules';

describe('the JSON editor page rules', () => {
  it('the sample passes', () => {
    expect(checkRules(SAMPLE)).toEqual([]);
  });

  it('reports each problem with the path of its value', () => {
    const problems = checkRules({
      name: '',
      version: 1.5,
      tags: ['a', 2],
      owner: { email: 'x' },
      enabled: 'yes',
    });
    expect(problems.map((p) => pathLabel(p.path))).toEqual([
      'name',
      'version',
      'enabled',
      'tags[1]',
      'owner.email',
    ]);
  });

  it('a root that is no object is one problem', () => {
    expect(checkRules([1, 2])).toEqual([{ path: [], message: '根节点须是对象' }]);
    expect(pathLabel([])).toBe('（根）');
  });
});
