/**
 * What AEAT's VERI*FACTU schema accepts in a name it receives (SuministroInformacion.xsd,
 * `TextMax120Type`: NombreRazon of the recipient and of the issuer), checked wherever such a
 * name is typed, so that a record is never refused for it (issue 37, item 6). A name with a
 * control character would also make an XML export that is not well-formed (XML 1.0, §2.2).
 */
export const AEAT_NAME_MAX = 120;

// eslint-disable-next-line no-control-regex -- exactly the control characters are refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** Whether `text` holds a character no typed name has: C0 and C1 controls, DEL, line breaks. */
export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARACTERS.test(text);
}
