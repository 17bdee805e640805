import { Button, ConfigProvider, Empty, Pagination, Popconfirm, Radio, Spin, Table, Transfer } from 'antd';
import type { Locale } from 'antd/es/locale';
import { createInstance, type i18n as I18n } from 'i18next';
import { useContext, useEffect, useMemo, useState } from 'react';
import { I18nextProvider, initReactI18next, useTranslation } from 'react-i18next';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { LANGUAGES, type Lang, MESSAGES } from './messages';
import '../showcase.css';

/** antd's locale for each language, loaded when first chosen (zh_CN is the console's own, from the shell). */
const ANTD_LOCALES: Record<Exclude<Lang, 'zh'>, () => Promise<{ default: Locale }>> = {
  en: () => import('antd/locale/en_US'),
  es: () => import('antd/locale/es_ES'),
  ja: () => import('antd/locale/ja_JP'),
};

/** This page's own i18next instance (not the global one): nothing else in the console is translated. */
function createI18n(): I18n {
  const instance = createInstance();
  void instance.use(initReactI18next).init({
    lng: 'zh',
    fallbackLng: 'zh',
    resources: Object.fromEntries(Object.entries(MESSAGES).map(([lng, t]) => [lng, { translation: t }])),
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
}

function Demo() {
  const { t, i18n } = useTranslation();
  const rows = [
    { key: '1', order: 'WX20240001', amount: '¥ 199.00', status: t('paid') },
    { key: '2', order: 'WX20240002', amount: '¥ 599.00', status: t('pending') },
  ];
  const items = Array.from({ length: 6 }, (_, i) => ({ key: String(i + 1), title: t('item', { n: i + 1 }) }));
  const [target, setTarget] = useState<string[]>(['2']);
  return (
    <div className="i18n-demo" lang={LANGUAGES.find((l) => l.code === i18n.language)?.htmlLang}>
      <h2 data-testid="i18n-title">{t('title')}</h2>
      <p>{t('intro')}</p>
      <p data-testid="i18n-greeting">{t('greeting', { name: t('name'), count: 3 })}</p>
      <h3>{t('table')}</h3>
      <Table
        size="small"
        pagination={false}
        dataSource={rows}
        columns={[
          { title: t('colOrder'), dataIndex: 'order', sorter: (a, b) => a.order.localeCompare(b.order) },
          { title: t('colAmount'), dataIndex: 'amount' },
          { title: t('colStatus'), dataIndex: 'status' },
          {
            title: '',
            key: 'op',
            render: () => (
              <Popconfirm title={t('confirm')}>
                <Button type="link" size="small">
                  {t('delete')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
        scroll={{ x: 'max-content' }}
      />
      <Pagination total={85} showSizeChanger showQuickJumper style={{ marginTop: 12 }} />
      <h3>{t('empty')}</h3>
      <Empty />
      <h3>{t('transfer')}</h3>
      <Transfer
        dataSource={items}
        targetKeys={target}
        onChange={(keys) => setTarget(keys as string[])}
        render={(item) => item.title}
        showSearch
      />
    </div>
  );
}

/**
 * i18n: switches its demo content (react-i18next with its own i18next instance) and antd's locale
 * between 中文, English, Español and 日本語. Loaded lazily with this page only.
 */
export default function I18nPage() {
  const i18n = useMemo(createI18n, []);
  // The shell's own antd locale (zh_CN): not imported again here, so this page shares no locale
  // module with the shell.
  const zhCN = useContext(ConfigProvider.ConfigContext).locale;
  const [lang, setLang] = useState<Lang>('zh');
  const [locale, setLocale] = useState<Locale | undefined>(zhCN);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    let live = true;
    setLoading(true);
    const load = lang === 'zh' ? Promise.resolve({ default: zhCN }) : ANTD_LOCALES[lang]();
    void load.then((m) => {
      if (!live) return;
      setLocale(m.default);
      void i18n.changeLanguage(lang);
      setLoading(false);
    });
    return () => {
      live = false;
    };
  }, [lang, i18n, zhCN]);
  return (
    <div className="page showcase-page" data-testid="i18n-page">
      <PageHeader subtitle="只有本页切换语言；控制台的其余部分始终是中文" />
      <Card
        title="语言"
        extra={
          <Radio.Group
            value={lang}
            onChange={(e) => setLang(e.target.value as Lang)}
            optionType="button"
            buttonStyle="solid"
            options={LANGUAGES.map((l) => ({ label: l.label, value: l.code }))}
            aria-label="语言"
          />
        }
      >
        <Spin spinning={loading}>
          <I18nextProvider i18n={i18n}>
            <ConfigProvider locale={locale}>
              <Demo />
            </ConfigProvider>
          </I18nextProvider>
        </Spin>
      </Card>
    </div>
  );
}
