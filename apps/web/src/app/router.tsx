import { createBrowserRouter, Navigate } from 'react-router';
import { PageLoader } from '../components/page-loader.tsx';
import { ApiAccessPage } from '../features/api-access/api-access-page.tsx';
import { LoginPage } from '../features/auth/login-page.tsx';
import { RequireAuth } from '../features/auth/require-auth.tsx';
import { CategoriesPage } from '../features/categories/categories-page.tsx';
import { CheckTokenPage } from '../features/check-token/check-token-page.tsx';
import { NotFoundPage } from '../features/errors/not-found-page.tsx';
import { QuotaPage } from '../features/fieldwork/quota-page.tsx';
import { ResearchStatisticPage } from '../features/fieldwork/research-statistic-page.tsx';
import { DemoPage } from '../features/interview-analysis/demo-page.tsx';
import { ProjectPage } from '../features/projects/project-page.tsx';
import { ProjectWizardPage } from '../features/projects/project-wizard-page.tsx';
import { ProjectsListPage } from '../features/projects/projects-list-page.tsx';
import { RecruitingJobPage } from '../features/recruiting/platform-page.tsx';
import { RecruitingTokensPage } from '../features/recruiting-tokens/recruiting-tokens-page.tsx';
import { ResearchFormPage } from '../features/researches/research-form-page.tsx';
import { ResearchIndex, ResearchPage } from '../features/researches/research-page.tsx';
import { ResearchesListPage } from '../features/researches/researches-list-page.tsx';
import { DotTestPage, ProjectResearchPage } from '../features/respondent/respondent-pages.tsx';
import { SurveyPage } from '../features/surveys/survey-page.tsx';
import { SurveysListPage } from '../features/surveys/surveys-list-page.tsx';
import { CabinetLayout } from './layouts/cabinet-layout.tsx';
import { PublicLayout } from './layouts/public-layout.tsx';
import { RespondentLayout } from './layouts/respondent-layout.tsx';
import { RootLayout } from './layouts/root-layout.tsx';

/** Every route of spec section 2. Pages that later work fills show their frame only. */
export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    // Shown while a lazily loaded page of the first address arrives.
    HydrateFallback: PageLoader,
    children: [
      {
        element: <PublicLayout />,
        children: [
          // Public pages load on demand: a respondent or an analyst never downloads them.
          {
            path: '/home',
            lazy: () => import('../features/public/home-page.tsx').then((m) => ({ Component: m.HomePage })),
          },
          {
            path: '/docs',
            lazy: () => import('../features/public/docs-page.tsx').then((m) => ({ Component: m.DocsPage })),
          },
          {
            path: '/price',
            lazy: () => import('../features/public/price-page.tsx').then((m) => ({ Component: m.PricePage })),
          },
          { path: '/login', element: <LoginPage /> },
          {
            path: '/request-access',
            lazy: () =>
              import('../features/access-requests/request-access-page.tsx').then((m) => ({
                Component: m.RequestAccessPage,
              })),
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        path: '/',
        element: (
          <RequireAuth>
            <Navigate to="/cabinet/projects" replace />
          </RequireAuth>
        ),
      },
      {
        path: '/cabinet',
        element: (
          <RequireAuth>
            <CabinetLayout />
          </RequireAuth>
        ),
        children: [
          { index: true, element: <Navigate to="projects" replace /> },
          { path: 'projects', element: <ProjectsListPage /> },
          { path: 'projects/add', element: <ProjectWizardPage /> },
          { path: 'projects/:id', element: <ProjectPage /> },
          { path: 'campaigns', element: <ResearchesListPage /> },
          {
            path: 'campaign/:id',
            element: <ResearchPage />,
            children: [
              { index: true, element: <ResearchIndex /> },
              { path: 'contentless', element: <ResearchFormPage contentless /> },
              { path: 'form', element: <ResearchFormPage /> },
              { path: 'statistic', element: <ResearchStatisticPage /> },
              // The report page carries the chart library: loaded when a report is opened.
              {
                path: 'report/:reportId',
                lazy: () => import('../features/reports/report-page.tsx').then((m) => ({ Component: m.ReportPage })),
              },
              {
                path: 'report/:reportId/presentation',
                lazy: () =>
                  import('../features/reports/report-files-page.tsx').then((m) => ({ Component: m.ReportFilesPage })),
              },
              { path: 'toloka', element: <RecruitingJobPage platform="toloka" /> },
              { path: 'mturk', element: <RecruitingJobPage platform="mturk" /> },
              { path: 'prolific', element: <RecruitingJobPage platform="prolific" /> },
            ],
          },
          {
            path: 'self-service',
            lazy: () =>
              import('../features/self-service/self-service-list-page.tsx').then((m) => ({
                Component: m.SelfServiceListPage,
              })),
          },
          {
            path: 'self-service/add',
            lazy: () =>
              import('../features/self-service/self-service-add-page.tsx').then((m) => ({
                Component: m.SelfServiceAddPage,
              })),
          },
          {
            path: 'self-service/:id',
            lazy: () =>
              import('../features/self-service/self-service-page.tsx').then((m) => ({ Component: m.SelfServicePage })),
          },
          {
            path: 'licences',
            lazy: () => import('../features/licences/licences-page.tsx').then((m) => ({ Component: m.LicencesPage })),
          },
          { path: 'api-access', element: <ApiAccessPage /> },
          {
            path: 'webhooks',
            lazy: () => import('../features/webhooks/webhooks-page.tsx').then((m) => ({ Component: m.WebhooksPage })),
          },
          {
            path: 'faq',
            lazy: () => import('../features/faq/faq-page.tsx').then((m) => ({ Component: m.FaqPage })),
          },
          { path: 'toloka', element: <RecruitingTokensPage service="toloka" /> },
          { path: 'yandex-tasks', element: <RecruitingTokensPage service="toloka" /> },
          { path: 'amazon', element: <RecruitingTokensPage service="mturk" /> },
          { path: 'prolific', element: <RecruitingTokensPage service="prolific" /> },
          { path: 'check-token', element: <CheckTokenPage /> },
          { path: 'surveys', element: <SurveysListPage /> },
          { path: 'surveys/:id', element: <SurveyPage /> },
          { path: 'categories', element: <CategoriesPage /> },
          { path: 'demo', element: <DemoPage kind="demo" /> },
          { path: 'interview-analysis', element: <DemoPage kind="interview" /> },
          { path: '*', element: <NotFoundPage inCabinet /> },
        ],
      },
      {
        element: <RespondentLayout />,
        children: [
          { path: '/dot-test', element: <DotTestPage /> },
          { path: '/quote/:projectId', element: <QuotaPage /> },
          { path: '/project-research/:linkId', element: <ProjectResearchPage /> },
        ],
      },
    ],
  },
]);
