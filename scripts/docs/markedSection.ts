/** A generated part of a hand-written page: the text between a begin and an end marker comment. */
export interface MarkedSection {
  begin: string;
  end: string;
}

/** The page with the text between the section's markers (markers included) replaced by `body`, itself framed by them. */
export function replaceMarkedSection(page: string, section: MarkedSection, body: string, pageName: string): string {
  const start = page.indexOf(section.begin);
  const end = page.indexOf(section.end);
  if (start === -1 || end === -1 || end < start) throw new Error(`${pageName} has no markers ${section.begin} … ${section.end}`);
  return `${page.slice(0, start)}${section.begin}\n\n${body}\n\n${section.end}${page.slice(end + section.end.length)}`;
}
