import { mount } from 'svelte';
import './ui/page.css';
import App from './ui/App.svelte';
import ExperimentPage from './ui/experiment/ExperimentPage.svelte';

const target = document.getElementById('app');
if (!target) throw new Error('#app missing');

// `?page=experiments`: experiments (variants x seeds, bands, paired statistics, stored runs).
const page = new URLSearchParams(location.search).get('page');
export default page === 'experiments' ? mount(ExperimentPage, { target }) : mount(App, { target });
