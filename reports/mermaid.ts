/**
 * Renders a report's {@link SequenceDiagram} as a Mermaid `sequenceDiagram`, which GitHub
 * renders inside a ```` ```mermaid ```` block. Requests are solid arrows (`->>`), responses
 * dotted (`-->>`), responses that carry an error end in a cross (`--x`), and faults, epoch
 * grants and the anomaly itself are notes. Participants get generated ids (`p0`, `p1`) so that
 * node names from a scenario never reach Mermaid's syntax, only its labels, which are
 * sanitised.
 */
import type { SequenceDiagram } from '../sim/runner';

/**
 * Text that is safe inside a Mermaid label or message: no statement separator (`;`), no
 * entity start (`#`), no HTML, one line.
 * @example mermaidText('a;b<c>') // 'a,b‹c›'
 */
function mermaidText(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/;/g, ',')
    .replace(/#/g, 'no. ')
    .replace(/</g, '‹')
    .replace(/>/g, '›')
    .replace(/%%/g, '% %')
    .replace(/&/g, '+');
}

const ARROWS = { request: '->>', response: '-->>', error: '--x' } as const;

/** The diagram as Mermaid source lines (without the code fence). */
export function renderMermaidSequence(diagram: SequenceDiagram): string[] {
  const ids = new Map<string, string>();
  diagram.participants.forEach((participant, index) => ids.set(participant.id, `p${index}`));
  const idOf = (node: string): string => {
    let id = ids.get(node);
    if (id === undefined) {
      id = `p${ids.size}`;
      ids.set(node, id);
    }
    return id;
  };
  const lines = ['sequenceDiagram'];
  for (const participant of diagram.participants) {
    lines.push(`    participant ${idOf(participant.id)} as ${mermaidText(participant.label)}`);
  }
  for (const step of diagram.steps) {
    if (step.type === 'note') {
      const over = step.over.map(idOf).join(',');
      lines.push(`    Note over ${over}: ${mermaidText(step.text)}`);
    } else {
      const arrow = ARROWS[step.style];
      lines.push(`    ${idOf(step.source)}${arrow}${idOf(step.target)}: ${mermaidText(step.text)}`);
    }
  }
  return lines;
}
