import { Pagination } from 'antd';
import '../../components/list.css';

/** The 消费记录 pager (antd's simple Pagination), in a chunk of its own: most companies never need it. */
export default function Pager(props: {
  current: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
}) {
  return <Pagination className="list-pagination" simple size="small" {...props} />;
}
