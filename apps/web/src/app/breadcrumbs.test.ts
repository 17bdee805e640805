import { describe, expect, it } from 'vitest';
import { breadcrumbTrail } from './breadcrumbs';
import { pageTitle } from './page-title';

describe('breadcrumbs', () => {
  it('shows only home on the dashboard and for unknown paths', () => {
    expect(breadcrumbTrail('/dashboard')).toEqual([{ title: '首页' }]);
    expect(breadcrumbTrail(undefined)).toEqual([{ title: '首页' }]);
  });

  it('puts the menu group between home and the page', () => {
    expect(breadcrumbTrail('/wechatList/index')).toEqual([
      { title: '首页', path: '/dashboard' },
      { title: '管理 & 账号' },
      { title: '微信管理' },
    ]);
  });

  it('links a hidden page to its parent', () => {
    expect(breadcrumbTrail('/userInfo/resetPhone')).toEqual([
      { title: '首页', path: '/dashboard' },
      { title: '控制台', path: '/userInfo/index' },
      { title: '修改手机号' },
    ]);
    expect(breadcrumbTrail('/userInfo/index')).toEqual([
      { title: '首页', path: '/dashboard' },
      { title: '控制台' },
    ]);
  });
});

describe('page title', () => {
  it("is '{page title} - {product title}', or the product title alone", () => {
    expect(pageTitle('套餐', '微信 API 客户控制台')).toBe('套餐 - 微信 API 客户控制台');
    expect(pageTitle(undefined, '微信 API 客户控制台')).toBe('微信 API 客户控制台');
  });
});
