/**
 * A chart's step cursor is for keyboard users (Tab to it, then the arrows). A click on the plot must
 * not focus it: a focused cursor takes → and Space, so the lab's shortcuts stopped working and Space
 * scrolled the page. On mousedown the click leaves focus where a click on plain page would: nowhere
 * (the hover still follows the pointer).
 */
export function clickWithoutFocus(e: MouseEvent): void {
  e.preventDefault();
  const active = document.activeElement;
  if (active instanceof HTMLElement || active instanceof SVGElement) active.blur();
}
