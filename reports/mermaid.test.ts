/**
 * Goal: the Mermaid and Markdown renderers never let a string break their syntax. Method: render
 * a small diagram whose labels and texts hold `;`, `#`, `<`, `>` and a line break, and escape
 * table text holding `|` and HTML.
 */
import { describe, expect, it } from 'vitest';
import type { SequenceDiagram } from '../sim/runner';
import { markdownText } from './markdown';
import { renderMermaidSequence } from './mermaid';

describe('renderMermaidSequence', () => {
  it('declares participants by generated id and draws each step', () => {
    const diagram: SequenceDiagram = {
      participants: [
        { id: 'A', label: 'A (producer <x>;#1)' },
        { id: 'b1', label: 'b1 (coordinator)' },
      ],
      steps: [
        { type: 'message', timeUs: 1, source: 'A', target: 'b1', text: 'EndTxn', style: 'request' },
        { type: 'note', timeUs: 2, over: ['A', 'b1'], text: 'pause\nstarts' },
        { type: 'message', timeUs: 3, source: 'b1', target: 'A', text: 'OK', style: 'response' },
        { type: 'message', timeUs: 4, source: 'b1', target: 'A', text: 'FENCED', style: 'error' },
      ],
      omitted: 0,
      fromUs: 0,
      toUs: 5,
    };
    expect(renderMermaidSequence(diagram)).toEqual([
      'sequenceDiagram',
      '    participant p0 as A (producer ‹x›,no. 1)',
      '    participant p1 as b1 (coordinator)',
      '    p0->>p1: EndTxn',
      '    Note over p0,p1: pause starts',
      '    p1-->>p0: OK',
      '    p1--xp0: FENCED',
    ]);
  });
});

describe('markdownText', () => {
  it('escapes HTML and Markdown table syntax', () => {
    expect(markdownText('<b>a|b</b> *c*')).toBe('&lt;b&gt;a\\|b&lt;/b&gt; \\*c\\*');
  });
});
