import enCategories from './locales/en/categories.json';
import enCommon from './locales/en/common.json';
import enContent from './locales/en/content.json';
import enDemo from './locales/en/demo.json';
import enFaq from './locales/en/faq.json';
import enFieldwork from './locales/en/fieldwork.json';
import enIntegrations from './locales/en/integrations.json';
import enLicences from './locales/en/licences.json';
import enMedia from './locales/en/media.json';
import enMessages from './locales/en/messages.json';
import enNotifications from './locales/en/notifications.json';
import enProjects from './locales/en/projects.json';
import enPublic from './locales/en/public.json';
import enReports from './locales/en/reports.json';
import enReportView from './locales/en/reportView.json';
import enResearches from './locales/en/researches.json';
import enRespondent from './locales/en/respondent.json';
import enScenarios from './locales/en/scenarios.json';
import enSelfService from './locales/en/selfService.json';
import enSurveys from './locales/en/surveys.json';
import enTasks from './locales/en/tasks.json';
import idCategories from './locales/id/categories.json';
import idCommon from './locales/id/common.json';
import idContent from './locales/id/content.json';
import idDemo from './locales/id/demo.json';
import idFaq from './locales/id/faq.json';
import idFieldwork from './locales/id/fieldwork.json';
import idIntegrations from './locales/id/integrations.json';
import idLicences from './locales/id/licences.json';
import idMedia from './locales/id/media.json';
import idMessages from './locales/id/messages.json';
import idNotifications from './locales/id/notifications.json';
import idProjects from './locales/id/projects.json';
import idPublic from './locales/id/public.json';
import idReports from './locales/id/reports.json';
import idReportView from './locales/id/reportView.json';
import idResearches from './locales/id/researches.json';
import idRespondent from './locales/id/respondent.json';
import idScenarios from './locales/id/scenarios.json';
import idSelfService from './locales/id/selfService.json';
import idSurveys from './locales/id/surveys.json';
import idTasks from './locales/id/tasks.json';
import koCategories from './locales/ko/categories.json';
import koCommon from './locales/ko/common.json';
import koContent from './locales/ko/content.json';
import koDemo from './locales/ko/demo.json';
import koFaq from './locales/ko/faq.json';
import koFieldwork from './locales/ko/fieldwork.json';
import koIntegrations from './locales/ko/integrations.json';
import koLicences from './locales/ko/licences.json';
import koMedia from './locales/ko/media.json';
import koMessages from './locales/ko/messages.json';
import koNotifications from './locales/ko/notifications.json';
import koProjects from './locales/ko/projects.json';
import koPublic from './locales/ko/public.json';
import koReports from './locales/ko/reports.json';
import koReportView from './locales/ko/reportView.json';
import koResearches from './locales/ko/researches.json';
import koRespondent from './locales/ko/respondent.json';
import koScenarios from './locales/ko/scenarios.json';
import koSelfService from './locales/ko/selfService.json';
import koSurveys from './locales/ko/surveys.json';
import koTasks from './locales/ko/tasks.json';
import ruCategories from './locales/ru/categories.json';
import ruCommon from './locales/ru/common.json';
import ruContent from './locales/ru/content.json';
import ruDemo from './locales/ru/demo.json';
import ruFaq from './locales/ru/faq.json';
import ruFieldwork from './locales/ru/fieldwork.json';
import ruIntegrations from './locales/ru/integrations.json';
import ruLicences from './locales/ru/licences.json';
import ruMedia from './locales/ru/media.json';
import ruMessages from './locales/ru/messages.json';
import ruNotifications from './locales/ru/notifications.json';
import ruProjects from './locales/ru/projects.json';
import ruPublic from './locales/ru/public.json';
import ruReports from './locales/ru/reports.json';
import ruReportView from './locales/ru/reportView.json';
import ruResearches from './locales/ru/researches.json';
import ruRespondent from './locales/ru/respondent.json';
import ruScenarios from './locales/ru/scenarios.json';
import ruSelfService from './locales/ru/selfService.json';
import ruSurveys from './locales/ru/surveys.json';
import ruTasks from './locales/ru/tasks.json';

/** Every locale is bundled: switching language never waits for the network. */
export const resources = {
  ru: {
    common: ruCommon,
    public: ruPublic,
    projects: ruProjects,
    researches: ruResearches,
    scenarios: ruScenarios,
    media: ruMedia,
    messages: ruMessages,
    content: ruContent,
    demo: ruDemo,
    fieldwork: ruFieldwork,
    tasks: ruTasks,
    respondent: ruRespondent,
    surveys: ruSurveys,
    reports: ruReports,
    reportView: ruReportView,
    categories: ruCategories,
    integrations: ruIntegrations,
    notifications: ruNotifications,
    licences: ruLicences,
    faq: ruFaq,
    selfService: ruSelfService,
  },
  en: {
    common: enCommon,
    public: enPublic,
    projects: enProjects,
    researches: enResearches,
    scenarios: enScenarios,
    media: enMedia,
    messages: enMessages,
    content: enContent,
    demo: enDemo,
    fieldwork: enFieldwork,
    tasks: enTasks,
    respondent: enRespondent,
    surveys: enSurveys,
    reports: enReports,
    reportView: enReportView,
    categories: enCategories,
    integrations: enIntegrations,
    notifications: enNotifications,
    licences: enLicences,
    faq: enFaq,
    selfService: enSelfService,
  },
  id: {
    common: idCommon,
    public: idPublic,
    projects: idProjects,
    researches: idResearches,
    scenarios: idScenarios,
    media: idMedia,
    messages: idMessages,
    content: idContent,
    demo: idDemo,
    fieldwork: idFieldwork,
    tasks: idTasks,
    respondent: idRespondent,
    surveys: idSurveys,
    reports: idReports,
    reportView: idReportView,
    categories: idCategories,
    integrations: idIntegrations,
    notifications: idNotifications,
    licences: idLicences,
    faq: idFaq,
    selfService: idSelfService,
  },
  ko: {
    common: koCommon,
    public: koPublic,
    projects: koProjects,
    researches: koResearches,
    scenarios: koScenarios,
    media: koMedia,
    messages: koMessages,
    content: koContent,
    demo: koDemo,
    fieldwork: koFieldwork,
    tasks: koTasks,
    respondent: koRespondent,
    surveys: koSurveys,
    reports: koReports,
    reportView: koReportView,
    categories: koCategories,
    integrations: koIntegrations,
    notifications: koNotifications,
    licences: koLicences,
    faq: koFaq,
    selfService: koSelfService,
  },
} as const;
