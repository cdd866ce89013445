import { describe, expect, it } from 'vitest';
import { applyOutputBudget } from '../src/index.js';

describe("the tools' output budget", () => {
  it('tells a model to page the cut lines with process action=log, naming the session', () => {
    const body = Array.from({ length: 400 }, (_, i) => `line ${i + 1}`).join('\n');
    const { text, cut } = applyOutputBudget({ body, budget: 1_000, sessionId: 'proc_a' });
    expect(text).toContain(
      `Read them with process action=log session_id=proc_a offset=${cut!.firstOmittedLine - 1} limit=`,
    );
  });
});
