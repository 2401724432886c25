import { pyRepr, pyTypeName } from '../../src/validation/python';

describe('python-style message formatting', () => {
  it.each([
    ['x', 'str'],
    [5, 'int'],
    [1.5, 'float'],
    [true, 'bool'],
    [[1], 'list'],
    [{}, 'dict'],
    [null, 'NoneType'],
  ])('names the type of %p as %s', (value, name) => {
    expect(pyTypeName(value)).toBe(name);
  });

  it('prints values as upstream does', () => {
    expect(pyRepr(['@posthog.com', 5])).toBe("['@posthog.com', 5]");
    expect(pyRepr({ k: 'v' })).toBe("{'k': 'v'}");
    expect(pyRepr("it's")).toBe("it's");
    expect(pyRepr(["it's"])).toBe('["it\'s"]');
    expect(pyRepr([true, null])).toBe('[True, None]');
  });
});
