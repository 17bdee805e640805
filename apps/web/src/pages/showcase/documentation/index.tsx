import { ApiOutlined, FileTextOutlined, ReadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Card } from '../../../components/Card';
import { CopyableCode } from '../../../components/CopyButton';
import { PageHeader } from '../../../components/PageHeader';
import { useSite } from '../../../stores/site';
import '../showcase.css';

/** The README's sections, told in short (the README itself ships with the service, not the console). */
const README: { id: string; title: string; body: string; code?: string }[] = [
  {
    id: 'two-commands',
    title: '两条命令',
    body: '安装、构建并启动全部服务（含演示数据）；或运行全部检查：lint、类型检查、单元、API 与浏览器测试。',
    code: 'npm ci && npm start',
  },
  {
    id: 'configuration',
    title: '配置',
    body: '所有设置都是环境变量，启动时统一校验（apps/server/src/config.ts）；取值有误时服务不启动并指出是哪一项。模板示例由 SHOWCASE 开关控制，生产环境默认关闭。',
    code: 'SHOWCASE=false npm start',
  },
  {
    id: 'calling-the-api',
    title: '从程序调用 API',
    body: '在「子账号」中开通子账号并保存 appSecret（只显示一次）。每个请求带 x-app-key，再带上密钥本身（仅 HTTPS）或签名（x-timestamp、x-nonce、x-signature）。',
    code: "curl -s $BASE/api/msg/proxyList -H 'x-app-key: ak_…' -H 'x-app-secret: sk_…' -d '{}'",
  },
  {
    id: 'postgresql',
    title: 'PostgreSQL 模式',
    body: '默认使用内嵌的 SQLite；设置 DATABASE_URL 后改用 PostgreSQL，多个进程可共用一个数据库。',
  },
  {
    id: 'benchmarks',
    title: '性能基准',
    body: 'bench/ 下的脚本测量登录页与首个控制台页面的加载、接口吞吐与消息回调，结果与同一次运行中的基线相比。',
    code: 'node bench/console-load.mjs --loads 3',
  },
];

/** Documentation (pinned tab): this product's API reference and the README, in place of the template's. */
export default function DocumentationPage() {
  const productTitle = useSite((s) => s.productTitle);
  return (
    <div className="page showcase-page" data-testid="documentation-page">
      <PageHeader subtitle={`${productTitle} 的接口文档与使用说明`} />
      <div className="showcase-grid">
        <Card
          title={
            <>
              <ApiOutlined /> API 参考
            </>
          }
        >
          <p>由服务端校验所用的同一套 schema 生成，列出每个接口的参数、返回与错误码，可在页面中直接试调。</p>
          <Button type="primary" href="/docs" target="_blank" rel="noopener" icon={<ReadOutlined />}>
            打开 API 参考（/docs）
          </Button>
        </Card>
        <Card
          title={
            <>
              <FileTextOutlined /> OpenAPI 文档
            </>
          }
        >
          <p>机器可读的 OpenAPI 描述，可导入 Postman、Apifox 等工具或生成客户端代码。</p>
          <Button href="/docs/json" target="_blank" rel="noopener">
            下载 /docs/json
          </Button>
        </Card>
      </div>
      <Card title="README 摘要">
        <nav className="showcase-row" aria-label="README 目录">
          {README.map((s) => (
            <a key={s.id} href={`#readme-${s.id}`}>
              {s.title}
            </a>
          ))}
        </nav>
        {README.map((s) => (
          <section key={s.id} id={`readme-${s.id}`} className="doc-section">
            <h3 className="doc-title">{s.title}</h3>
            <p>{s.body}</p>
            {s.code ? <CopyableCode text={s.code} what="命令" /> : null}
          </section>
        ))}
      </Card>
    </div>
  );
}
