/**
 * The page's only script: clicking a timeline bar opens and highlights its call; buttons expand or
 * collapse every call and show only problems. The page's CSP admits this script by its hash.
 * @internal
 */
export const PAGE_SCRIPT = `(() => {
  const reveal = (id) => {
    const element = document.getElementById(id);
    if (!element) return;
    for (let node = element; node; node = node.parentElement) if (node.tagName === 'DETAILS') node.open = true;
    element.scrollIntoView({ block: 'center' });
    element.classList.add('flash');
    setTimeout(() => element.classList.remove('flash'), 1500);
  };
  document.addEventListener('click', (event) => {
    const origin = event.target instanceof Element ? event.target : null;
    const bar = origin && origin.closest('[data-target]');
    if (bar) {
      event.preventDefault();
      reveal(bar.getAttribute('data-target'));
      return;
    }
    const button = origin && origin.closest('button[data-action]');
    if (!button) return;
    const action = button.getAttribute('data-action');
    if (action === 'expand' || action === 'collapse') {
      for (const details of document.querySelectorAll('main details')) details.open = action === 'expand';
    }
    if (action === 'problems') {
      const on = document.body.classList.toggle('only-problems');
      button.setAttribute('aria-pressed', String(on));
      button.textContent = on ? 'Show all calls' : 'Only problems';
    }
  });
})();`;
