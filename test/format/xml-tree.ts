// A strict XML parse (saxes) into a small tree, so tests assert on what a consumer would read.
import { SaxesParser } from 'saxes';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

/** Parses a whole document; throws on anything that is not well-formed XML 1.0. */
export function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  parser.on('opentag', (tag) => {
    const el: XmlElement = { name: tag.name, attrs: { ...(tag.attributes as Record<string, string>) }, children: [] };
    if (stack.length) stack[stack.length - 1].children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', (t) => {
    if (stack.length) stack[stack.length - 1].children.push(t);
  });
  parser.on('cdata', (t) => {
    if (stack.length) stack[stack.length - 1].children.push(t);
  });
  parser.on('error', (e) => {
    throw e;
  });
  parser.write(xml).close();
  if (root === null) throw new Error('no root element');
  return root;
}

export function elements(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c): c is XmlElement => typeof c !== 'string' && c.name === name);
}

export function child(el: XmlElement, name: string): XmlElement | undefined {
  return elements(el, name)[0];
}

export function textOf(el: XmlElement | undefined): string {
  if (!el) return '';
  return el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}
