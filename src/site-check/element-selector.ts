/** Ancestors named in a finding's selector; deeper ones are left out. */
const MAX_DEPTH = 4;

/**
 * A short CSS selector of an element for a finding: its id when it has
 * one, else its tag and place among its siblings of that tag, under up to
 * MAX_DEPTH ancestors (enough to find it in a landing page).
 */
export function selectorOf(element: Element): string {
  const steps: string[] = [];
  let current: Element | null = element;
  while (current && steps.length < MAX_DEPTH) {
    const tag = current.localName;
    if (current.id && /^[A-Za-z][\w-]*$/.test(current.id)) {
      steps.unshift(`${tag}#${current.id}`);
      break;
    }
    const parent: Element | null = current.parentElement;
    if (!parent) {
      steps.unshift(tag);
      break;
    }
    const same = [...parent.children].filter((c) => c.localName === tag);
    steps.unshift(
      same.length > 1
        ? `${tag}:nth-of-type(${same.indexOf(current) + 1})`
        : tag,
    );
    current = parent;
  }
  return steps.join(' > ');
}
