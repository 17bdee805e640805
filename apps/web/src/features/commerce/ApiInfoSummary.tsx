import { Button, Descriptions, Skeleton, Tag } from 'antd';
import { useNavigate } from 'react-router';
import { CopyableCode } from '../../components/CopyButton';
import { ApplyApiButton } from './ApplyApiButton';
import { useApiAccounts, useService } from './queries';
import './commerce.css';

/**
 * The company's real API information for the top bar's "API 信息" dialog: service address, package
 * status, sub-accounts and quota, the first app key; with a package but no API access yet, the
 * 开通 API button. `onNavigate` lets the dialog close when a link is followed.
 */
export function ApiInfoSummary({ onNavigate }: { onNavigate?(): void }) {
  const service = useService();
  const accounts = useApiAccounts(false);
  const navigate = useNavigate();
  const go = (path: string) => {
    onNavigate?.();
    navigate(path);
  };
  if (service.isPending || accounts.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (service.isError || accounts.isError) {
    return <p className="muted">API 信息加载失败，请稍后重试。</p>;
  }
  const { show, api } = service.data;
  const { list, totalSlots, allocatedSlots, freeSlots } = accounts.data;
  const first = list[0];
  return (
    <div className="api-info-summary" data-testid="api-info-summary">
      <Descriptions
        column={1}
        size="small"
        bordered
        items={[
          { key: 'api', label: '服务地址', children: <CopyableCode text={api} what="服务地址" /> },
          {
            key: 'package',
            label: '套餐状态',
            children: show ? <Tag color="success">有效</Tag> : <Tag color="warning">暂无有效套餐</Tag>,
          },
          {
            key: 'accounts',
            label: '子账号',
            children: list.length ? `${list.length} 个` : '未开通',
          },
          {
            key: 'quota',
            label: '账号额度',
            children: `共 ${totalSlots} 个，已分配 ${allocatedSlots} 个，可分配 ${freeSlots} 个`,
          },
          ...(first
            ? [
                {
                  key: 'appKey',
                  label: 'AppKey',
                  children: <CopyableCode text={first.appKey} what="AppKey" />,
                },
              ]
            : []),
        ]}
      />
      <div className="api-info-actions">
        {!show ? (
          <Button type="primary" onClick={() => go('/purchaseRecords/index')}>
            去购买套餐
          </Button>
        ) : list.length === 0 ? (
          <ApplyApiButton />
        ) : (
          <Button onClick={() => go('/accountList/index')}>管理子账号</Button>
        )}
        <Button type="link" onClick={() => go('/myAPI/index')}>
          查看接入说明
        </Button>
      </div>
      <p className="muted dialog-note">AppSecret 只在创建或重置时显示一次，如已遗失请在「子账号」中重置。</p>
    </div>
  );
}
