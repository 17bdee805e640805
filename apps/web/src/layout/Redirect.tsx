import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { redirectTarget } from '../app/redirect-route';

/**
 * `/redirect/{path*}` inside the shell (spec §2): replaces itself with the target path (query kept),
 * so the page behind it mounts afresh. Every cached answer is marked stale first — without
 * refetching anything now, so no request in flight is cancelled — and the new page loads its own.
 */
export default function Redirect() {
  const { '*': splat } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per visit of the helper route.
  useEffect(() => {
    void client.invalidateQueries({ refetchType: 'none' });
    void navigate(redirectTarget(splat, search), { replace: true });
  }, []);
  return null;
}
