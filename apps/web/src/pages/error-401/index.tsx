import { Link, useNavigate } from 'react-router';

export default function ForbiddenPage() {
  const navigate = useNavigate();
  return (
    <main className="status-page">
      <div className="status-card">
        <div className="status-code">401</div>
        <h1>无权访问</h1>
        <p>当前账号没有访问该页面的权限。如需开通，请联系管理员或客服。</p>
        <div className="status-actions">
          <Link className="btn btn-primary" to="/">
            返回首页
          </Link>
          <button type="button" className="btn" onClick={() => navigate(-1)}>
            返回上一页
          </button>
        </div>
      </div>
    </main>
  );
}
