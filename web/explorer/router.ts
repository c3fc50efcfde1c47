/** Client-side navigation: one page, views drawn from `location.pathname` (the server serves the same page on every explorer path). */
let render: () => void = () => undefined;

export function navigate(path: string): void {
  history.pushState(null, '', path);
  render();
}

/** Draws the view for the current URL now, on back/forward, and on clicks of same-origin explorer links. */
export function startRouter(draw: () => void): void {
  render = draw;
  addEventListener('popstate', () => render());
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest('a');
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || link.target) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !(url.pathname === '/' || url.pathname.startsWith('/explorer'))) return;
    event.preventDefault();
    navigate(url.pathname + url.search);
  });
  render();
}
