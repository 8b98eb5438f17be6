import { describe, expect, it } from 'vitest';
import { chosenSubnet } from '../../runtime/cluster/start-cluster.js';
import { UsageError } from '../../core/errors.js';

describe("the cluster's subnet: up --subnet, else FENCECHECK_SUBNET, else the default", () => {
  it('prefers the flag, then the variable; empty or unset means the default', () => {
    expect(chosenSubnet('10.79.0.0/24', '10.78.0.0/24')).toBe('10.79.0.0/24');
    expect(chosenSubnet(undefined, '10.78.0.0/24')).toBe('10.78.0.0/24');
    expect(chosenSubnet(undefined, '')).toBeUndefined();
    expect(chosenSubnet(undefined, undefined)).toBeUndefined();
  });

  it('a bad variable is bad input (exit 254), naming the variable and the value', () => {
    for (const bad of ['8.8.8.0/24', '10.78.0.0/16', 'ten']) {
      expect(() => chosenSubnet(undefined, bad)).toThrow(UsageError);
      expect(() => chosenSubnet(undefined, bad)).toThrow(`Expected FENCECHECK_SUBNET to be a private /24 such as \`10.78.0.0/24\`, got \`${bad}\``);
    }
  });
});
