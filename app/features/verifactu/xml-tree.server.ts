import { XMLParser, XMLValidator } from "fast-xml-parser";

/**
 * XML read namespace-aware: every element is named by its namespace URI and local name, never
 * by the prefix the sender chose (AEAT answers with `env`/`tikR`/`tik`, its examples use
 * `soapenv`/`sum`/`sum1`; both must read the same).
 */
export type XmlElement = {
  namespace: string;
  name: string;
  /** The element's own text, trimmed; empty when it has only children. */
  text: string;
  children: XmlElement[];
};

export class XmlSyntaxError extends Error {}

type OrderedNode = Record<string, unknown> & { ":@"?: Record<string, string> };

const TEXT = "#text";
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  textNodeName: TEXT,
});

function scopeOf(attributes: Record<string, string> | undefined, parent: Map<string, string>) {
  if (!attributes) return parent;
  const scope = new Map(parent);
  for (const [attribute, value] of Object.entries(attributes)) {
    if (attribute === "xmlns") scope.set("", value);
    else if (attribute.startsWith("xmlns:")) scope.set(attribute.slice(6), value);
  }
  return scope;
}

function toElement(node: OrderedNode, parentScope: Map<string, string>): XmlElement | undefined {
  const tag = Object.keys(node).find((key) => key !== ":@" && key !== TEXT);
  if (!tag || tag.startsWith("?") || tag.startsWith("#")) return undefined;
  const scope = scopeOf(node[":@"], parentScope);
  const colon = tag.indexOf(":");
  const prefix = colon === -1 ? "" : tag.slice(0, colon);
  const namespace = scope.get(prefix);
  if (namespace === undefined && prefix !== "") {
    throw new XmlSyntaxError(`Prefijo de espacio de nombres sin declarar: ${prefix}`);
  }
  const content = (node[tag] as OrderedNode[] | undefined) ?? [];
  const children: XmlElement[] = [];
  let text = "";
  for (const child of content) {
    if (TEXT in child) text += String(child[TEXT]);
    else {
      const element = toElement(child, scope);
      if (element) children.push(element);
    }
  }
  return {
    namespace: namespace ?? "",
    name: colon === -1 ? tag : tag.slice(colon + 1),
    text: text.trim(),
    children,
  };
}

/** Parses a document to its root element; throws XmlSyntaxError when it is not well formed. */
export function parseXml(xml: string): XmlElement {
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    throw new XmlSyntaxError(`XML mal formado: ${valid.err.msg} (línea ${valid.err.line})`);
  const nodes = parser.parse(xml) as OrderedNode[];
  const roots = nodes
    .map((node) => toElement(node, new Map()))
    .filter((element): element is XmlElement => element !== undefined);
  if (roots.length !== 1)
    throw new XmlSyntaxError("El documento debe tener un único elemento raíz");
  return roots[0]!;
}

/** The children of an element with this namespace and local name. */
export function childrenNamed(parent: XmlElement | undefined, namespace: string, name: string) {
  return (
    parent?.children.filter((child) => child.namespace === namespace && child.name === name) ?? []
  );
}

/** The first child with this namespace and local name. */
export function childNamed(parent: XmlElement | undefined, namespace: string, name: string) {
  return childrenNamed(parent, namespace, name)[0];
}

/** The text of the first child with this name, or undefined when there is none. */
export function textOf(parent: XmlElement | undefined, namespace: string, name: string) {
  return childNamed(parent, namespace, name)?.text;
}
