/**
 * The site a report is about, as its title and heading name it: the start URL's host (with
 * its port), or the start as given when it is not a URL. Shared by Node (the page's
 * `<title>`) and the page's script (its heading).
 */
export function siteName(start: string): string {
  try {
    return new URL(start).host;
  } catch {
    return start;
  }
}
