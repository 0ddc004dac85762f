import type { XmlElement } from './xml.ts';

// Lookups by local name only: UBL and CII documents in the wild use any prefixes (or none),
// so a binding's path `ram:SellerTradeParty/ram:Name` is matched as SellerTradeParty/Name.

/** The first element reached by following local names from `from`, depth-first over ambiguities. */
export function find(from: XmlElement | undefined, ...locals: string[]): XmlElement | undefined {
  if (!from) return undefined;
  if (locals.length === 0) return from;
  const [head, ...rest] = locals;
  for (const child of from.children) {
    if (child.local !== head) continue;
    const hit = find(child, ...rest);
    if (hit) return hit;
  }
  return undefined;
}

/** Every element at the end of the local-name path. */
export function findAll(from: XmlElement | undefined, ...locals: string[]): XmlElement[] {
  if (!from) return [];
  if (locals.length === 0) return [from];
  const [head, ...rest] = locals;
  return from.children.filter((c) => c.local === head).flatMap((c) => findAll(c, ...rest));
}

export function textOf(el: XmlElement | undefined): string | undefined {
  const value = el?.text.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** The element's path from the root, with positions where a name repeats: `/Invoice/cac:TaxTotal[1]/...`. */
export function pathOf(el: XmlElement): string {
  const parts: string[] = [];
  for (let at: XmlElement | null = el; at; at = at.parent) {
    const repeated =
      at.position > 1 || (at.parent?.children.filter((c) => c.name === at?.name).length ?? 1) > 1;
    parts.unshift(repeated ? `${at.name}[${at.position}]` : at.name);
  }
  return `/${parts.join('/')}`;
}
