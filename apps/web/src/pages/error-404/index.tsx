import { Link, useNavigate } from 'react-router';

export default function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <main className="status-page">
      <div className="status-card">
        <div className="status-code">404</div>
        <h1>页面不存在</h1>
        <p>您访问的页面不存在或已被移除，请检查网址是否正确。</p>
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
