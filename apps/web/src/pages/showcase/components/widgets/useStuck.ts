import { type RefObject, useEffect, useState } from 'react';

/** How far down the shell's header covers the page: its height when it is fixed, else 0. */
function headerCover(): number {
  const header = document.querySelector('.app-header.fixed-header');
  return header ? header.getBoundingClientRect().height : 0;
}

export interface Stuck {
  stuck: boolean;
  /** Where the bar sits while stuck (px from the viewport's top). */
  top: number;
}

/**
 * Whether the bar after `sentinel` has reached the top of the content area: the (zero-height)
 * sentinel has scrolled above the shell's header, seen by an IntersectionObserver. The shell's
 * `.app-main` clips its overflow, so CSS `position: sticky` cannot stick there; the page fixes the
 * bar itself while this says stuck (as the template's Sticky component does).
 */
export function useStuck(sentinel: RefObject<HTMLElement | null>): Stuck {
  const [state, setState] = useState<Stuck>({ stuck: false, top: 0 });
  useEffect(() => {
    const target = sentinel.current;
    if (!target) return;
    let observer: IntersectionObserver | undefined;
    const observe = () => {
      observer?.disconnect();
      const top = headerCover();
      observer = new IntersectionObserver(
        ([entry]) => {
          if (!entry) return;
          // Out of view above the header's edge (not below the screen's bottom).
          const stuck = !entry.isIntersecting && entry.boundingClientRect.top < top + 1;
          setState({ stuck, top });
        },
        { rootMargin: `-${top}px 0px 0px 0px`, threshold: [0, 1] },
      );
      observer.observe(target);
    };
    observe();
    // The header's height changes with the settings (fixed header, tags view).
    const header = document.querySelector('.app-header');
    const resized = header ? new ResizeObserver(observe) : undefined;
    if (header) resized?.observe(header);
    return () => {
      observer?.disconnect();
      resized?.disconnect();
    };
  }, [sentinel]);
  return state;
}
