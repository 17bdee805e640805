import { useSite } from '../../stores/site';
import './agreement.css';

const SECTIONS: Array<{ title: string; items: string[] }> = [
  {
    title: '一、协议的范围',
    items: [
      '本协议是您（以下称“用户”，指注册并使用本服务的企业或组织）与本平台之间就使用微信账号接口服务（以下称“本服务”）所订立的协议。',
      '您勾选“我已阅读并同意《服务协议》”并完成注册，即表示您已充分阅读、理解并接受本协议的全部内容。',
    ],
  },
  {
    title: '二、账号注册与安全',
    items: [
      '您应使用本企业真实有效的手机号注册，该手机号即为登录账号，并按平台要求完成实名认证。',
      '您应妥善保管账号密码、接口密钥（AppKey / Secret）等凭证。因保管不善导致的损失由您自行承担；发现账号被盗用时请立即修改密码并联系客服。',
      '一个企业原则上只注册一个主账号，可在控制台中创建子账号分配给不同业务系统使用。',
    ],
  },
  {
    title: '三、服务内容',
    items: [
      '本平台向您提供消息收发、通讯录同步、账号登录状态管理、回调通知、在线测试等接口能力，具体以您所购买套餐的说明为准。',
      '平台可能根据业务发展对服务内容进行调整，重大变更将提前在控制台内公告。',
    ],
  },
  {
    title: '四、使用规范',
    items: [
      '您承诺在遵守国家法律法规及相关平台规则的前提下使用本服务，不得用于发送垃圾信息、诈骗、赌博、色情、侵犯他人隐私等违法违规用途。',
      '您应确保通过本服务处理的个人信息已取得相关个人的合法授权，并采取必要措施保护其安全。',
      '如您违反上述规范，平台有权视情节暂停或终止服务，并保留依法追究责任的权利。',
    ],
  },
  {
    title: '五、费用与套餐',
    items: [
      '本服务按套餐收费，价格、可用账号数量及有效期以购买页面展示为准。套餐到期未续费的，相关接口能力将停止使用。',
      '已生效的套餐原则上不支持退款，法律法规另有规定的除外。',
    ],
  },
  {
    title: '六、数据与隐私',
    items: [
      '平台仅为向您提供服务之目的收集和使用必要的数据，并采取加密存储、访问控制等措施保护数据安全。',
      '除法律法规要求或经您同意外，平台不会向任何第三方提供您的业务数据。',
    ],
  },
  {
    title: '七、免责与责任限制',
    items: [
      '因不可抗力、第三方平台规则调整、网络故障等非平台原因导致的服务中断或账号异常，平台不承担责任，但会尽力协助恢复。',
      '在法律允许的范围内，平台对本服务承担的责任总额不超过您在争议发生前十二个月内实际支付的服务费用。',
    ],
  },
  {
    title: '八、其他',
    items: [
      '本协议的订立、执行和解释均适用中华人民共和国法律。因本协议产生的争议，双方应友好协商解决；协商不成的，提交平台所在地有管辖权的人民法院处理。',
      '如对本协议有任何疑问，请通过控制台中的“联系客服”与我们联系。',
    ],
  },
];

export default function AgreementPage() {
  const productTitle = useSite((s) => s.productTitle);
  return (
    <main className="agreement">
      <article className="agreement-card">
        <header>
          <h1>服务协议</h1>
          <p className="agreement-sub">{productTitle} · 更新日期：2025 年 1 月 1 日</p>
        </header>
        {SECTIONS.map((section) => (
          <section key={section.title}>
            <h2>{section.title}</h2>
            <ol>
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ol>
          </section>
        ))}
        <footer className="agreement-actions">
          {/* The sign-in screen is a page of its own: plain links, full page loads. */}
          <a className="btn btn-primary" href="/register">
            返回注册
          </a>
          <a className="btn" href="/login">
            返回登录
          </a>
        </footer>
      </article>
    </main>
  );
}
