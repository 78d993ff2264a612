/**
 * Calls `flush` when the page is hidden (another tab, a minimised window: it may be discarded
 * without another event) or goes away (reload, navigation, close): the last moments in which a
 * write can still be started. Returns the unsubscribe. Outside a page (Node) it does nothing.
 */
export function onPageLeave(flush: () => void): () => void {
  if (typeof window === 'undefined' || typeof document === 'undefined') return () => undefined;
  const onHidden = (): void => {
    if (document.visibilityState === 'hidden') flush();
  };
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', onHidden);
  return () => {
    window.removeEventListener('pagehide', flush);
    document.removeEventListener('visibilitychange', onHidden);
  };
}
