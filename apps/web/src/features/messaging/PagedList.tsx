import type { UseQueryResult } from '@tanstack/react-query';
import { Pagination, Table, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { useNarrow } from '../commerce/useNarrow';
import { QueryState } from '../commerce/widgets';

interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * A paged list with the commerce screens' states (loading, error with retry, empty): a table on
 * wide screens, cards on phones.
 */
export function PagedList<T extends object>({
  query,
  columns,
  rowKey,
  card,
  empty,
  onPage,
  scrollX = 900,
  label,
  unit = '条',
}: {
  query: UseQueryResult<Page<T>>;
  columns: TableColumnsType<T>;
  rowKey: keyof T & string;
  card(row: T): ReactNode;
  empty: ReactNode;
  onPage(page: number, pageSize: number): void;
  scrollX?: number;
  label: string;
  /** Counter word in "共 N …" (条 by default; 个 for accounts). */
  unit?: string;
}) {
  const narrow = useNarrow();
  return (
    <QueryState query={query} rows={5}>
      {(d) =>
        narrow ? (
          d.list.length === 0 ? (
            empty
          ) : (
            <>
              <ul className="card-list" aria-label={label}>
                {d.list.map((row) => (
                  <li key={String(row[rowKey])} className="list-card">
                    {card(row)}
                  </li>
                ))}
              </ul>
              {d.total > d.pageSize ? (
                <Pagination
                  className="list-pagination"
                  simple
                  current={d.page}
                  pageSize={d.pageSize}
                  total={d.total}
                  onChange={onPage}
                />
              ) : null}
            </>
          )
        ) : (
          <Table<T>
            rowKey={rowKey}
            size="middle"
            columns={columns}
            dataSource={d.list}
            loading={query.isFetching && query.isPlaceholderData}
            scroll={{ x: scrollX }}
            locale={{ emptyText: empty }}
            aria-label={label}
            pagination={{
              current: d.page,
              pageSize: d.pageSize,
              total: d.total,
              showSizeChanger: true,
              pageSizeOptions: [10, 20, 50],
              showTotal: (t) => `共 ${t} ${unit}`,
              onChange: onPage,
              hideOnSinglePage: d.total <= 10,
            }}
          />
        )
      }
    </QueryState>
  );
}
