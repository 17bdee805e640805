import { ExportOutlined, ShoppingOutlined, TeamOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Tag } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CopyableCode, CopyButton } from '../../components/CopyButton';
import { QueryState } from '../../components/QueryState';
import { AccessModeList } from '../../features/commerce/AccessModeList';
import { ApplyApiButton } from '../../features/commerce/ApplyApiButton';
import { buildCurlExample } from '../../features/commerce/logic';
import { useApiAccounts, useService } from '../../features/commerce/queries';
import { TierRule } from '../../features/commerce/TierRule';
import { QuotaSummary } from '../../features/commerce/widgets';
import { useCompanyAccountType, useReadOnly } from '../../stores/support-view';
import { accountTypeLabel } from '../../utils/labels';
import '../../features/commerce/commerce.css';
import './my-api.css';
import { PageHeader } from '../../components/PageHeader';

function BuyButton() {
  const navigate = useNavigate();
  return (
    <Button type="primary" icon={<ShoppingOutlined />} onClick={() => navigate('/purchaseRecords/index')}>
      去购买
    </Button>
  );
}

function ServiceCard() {
  const service = useService();
  const readOnly = useReadOnly();
  return (
    <Card title="服务信息">
      <QueryState query={service} rows={2}>
        {({ show, api }) => (
          <div className="service-block">
            <div className="service-row">
              <span className="service-label">服务地址</span>
              <span data-testid="service-address">
                <CopyableCode text={api} what="服务地址" />
              </span>
            </div>
            <div className="service-row">
              <span className="service-label">套餐状态</span>
              {show ? <Tag color="success">有效</Tag> : <Tag color="warning">暂无有效套餐</Tag>}
            </div>
            {!show ? (
              <Alert
                type="warning"
                showIcon
                title="暂无有效套餐"
                description="购买套餐后即可开通 API、登录微信账号；套餐到期后 API 调用将停止。"
                action={readOnly ? null : <BuyButton />}
              />
            ) : null}
          </div>
        )}
      </QueryState>
    </Card>
  );
}

function CredentialsCard() {
  const accounts = useApiAccounts(false);
  const service = useService();
  const hasPackage = service.data?.show ?? false;
  const navigate = useNavigate();
  const readOnly = useReadOnly();
  return (
    <Card
      title="API 凭证"
      extra={
        accounts.data?.list.length ? (
          <Button icon={<TeamOutlined />} onClick={() => navigate('/accountList/index')}>
            管理子账号
          </Button>
        ) : null
      }
    >
      <QueryState
        query={accounts}
        rows={3}
        isEmpty={(d) => d.list.length === 0}
        empty={
          <Empty
            description={
              hasPackage ? '尚未开通 API，开通后将生成第一个子账号的密钥' : '购买套餐后即可开通 API'
            }
          >
            {readOnly ? null : hasPackage ? <ApplyApiButton /> : <BuyButton />}
          </Empty>
        }
      >
        {(data) => (
          <div className="credentials">
            <QuotaSummary {...data} />
            <ul className="credential-list" aria-label="子账号">
              {data.list.slice(0, 5).map((a) => (
                <li key={a.id}>
                  <span className="credential-name">{a.name}</span>
                  <CopyableCode text={a.appKey} what="AppKey" />
                  <span className="muted">已分配 {a.availableNum} 个</span>
                </li>
              ))}
            </ul>
            <p className="muted">
              共 {data.list.length} 个子账号（API 应用）。AppSecret
              只在创建或重置时显示一次，遗失后请在「子账号」中重置。
            </p>
          </div>
        )}
      </QueryState>
    </Card>
  );
}

function ExampleCard() {
  const accounts = useApiAccounts(false);
  const service = useService();
  const [chosen, setChosen] = useState<string | undefined>();
  const list = accounts.data?.list ?? [];
  const appKey = chosen ?? list[0]?.appKey;
  const baseUrl = service.data?.api ?? location.origin;
  const curl = buildCurlExample({ baseUrl, appKey });
  return (
    <Card
      title="调用示例"
      extra={
        <Button type="link" icon={<ExportOutlined />} href="/docs" target="_blank" rel="noopener noreferrer">
          接口文档
        </Button>
      }
    >
      <p>
        每个请求都在请求头中带上子账号的 AppKey 和
        AppSecret；以下以获取登录二维码为例。完整的接口列表、参数和错误码见
        <a href="/docs" target="_blank" rel="noopener noreferrer">
          API 参考文档
        </a>
        。
      </p>
      {list.length > 1 ? (
        <div className="example-key">
          <span className="muted">使用子账号：</span>
          {/* A native select: this page stays small, and phones show their own picker. */}
          <select
            aria-label="使用子账号"
            className="native-select"
            value={appKey}
            onChange={(e) => setChosen(e.target.value)}
          >
            {list.map((a) => (
              <option key={a.appKey} value={a.appKey}>
                {a.name}（{a.appKey}）
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="curl-block">
        <div className="curl-head">
          <span>Shell · curl</span>
          <CopyButton text={curl} what="调用示例" label="复制命令" type="default" />
        </div>
        <pre data-testid="curl-example">{curl}</pre>
      </div>
      <p className="muted">
        {appKey ? '' : '开通 API 后这里会填入您的 AppKey。'}
        AppSecret 不会再次显示，请替换为您保存的密钥；切勿把密钥写在前端页面或公开的代码仓库中。
      </p>
    </Card>
  );
}

/** /myAPI/index (我的API): service address, credentials, access modes, how to call the API. */
export default function MyApiPage() {
  const accountType = useCompanyAccountType();
  return (
    <div className="page commerce-page my-api-page">
      <PageHeader subtitle="服务地址、API 凭证与调用示例" />
      <ServiceCard />
      <CredentialsCard />
      <Card title="接入方式">
        <p>
          您当前的接入方式：<strong data-testid="my-access-mode">{accountTypeLabel(accountType)}</strong>
          。不同接入方式需要相应等级的套餐。
        </p>
        <div className="api-opening-rule">
          <TierRule />
        </div>
        <AccessModeList accountType={accountType} />
      </Card>
      <ExampleCard />
    </div>
  );
}
