import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';

/**
 * Renders `children` (typically lazy components) once this spot comes within `margin` of the
 * viewport, and `placeholder` until then and while their code loads. The placeholder should have the
 * section's own height, so nothing moves when the section arrives. Once near, it stays rendered.
 * `placeholder(loading)`: false while it waits to be scrolled near (at rest: a shimmering skeleton
 * there would repaint the idle page 60 times a second, a quarter of a core), true while it loads.
 * It starts looking when `armed`: while the content above is still loading (and shorter than it will
 * be), a section further down would otherwise count as near.
 */
export function WhenNear({
  placeholder,
  children,
  margin = '200px',
  armed = true,
}: {
  placeholder: (loading: boolean) => ReactNode;
  children: ReactNode;
  margin?: string;
  armed?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (near || !armed || !el) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: `${margin} 0px` },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, armed, margin]);
  return (
    <div ref={ref} className="when-near" data-near={near}>
      {near ? <Suspense fallback={placeholder(true)}>{children}</Suspense> : placeholder(false)}
    </div>
  );
}
